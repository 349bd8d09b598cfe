module example.com/missingmodule

go 1.22

require example.com/vanished v1.2.3
