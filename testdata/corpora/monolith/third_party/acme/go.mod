module example.test/acme

go 1.22
