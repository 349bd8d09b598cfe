module example.com/syntaxerror

go 1.22
