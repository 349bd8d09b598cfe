module github.com/deadlinelint/deadlinelint/plugin

go 1.26.0

require (
	github.com/deadlinelint/deadlinelint v0.0.0-00010101000000-000000000000
	github.com/golangci/plugin-module-register v0.1.2
	golang.org/x/tools v0.52.0
)

replace github.com/deadlinelint/deadlinelint => ../
