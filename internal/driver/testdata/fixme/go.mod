module example.com/fixme

go 1.26
