module example.com/vendored

go 1.22

require example.com/tiny v1.0.0
