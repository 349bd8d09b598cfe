module example.com/replaced

go 1.22

require example.com/acme v1.2.0

replace example.com/acme => ./third_party/acme
