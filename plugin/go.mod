module github.com/deadlinelint/deadlinelint/plugin

go 1.26.0

require (
	github.com/deadlinelint/deadlinelint v0.0.0-00010101000000-000000000000
	github.com/golangci/plugin-module-register v0.1.2
	golang.org/x/tools v0.52.0
)

// Builds in this repository use the root module of the checkout. Replace
// directives do not apply where this module is a dependency (golangci-lint
// custom): a release tags the root module vX.Y.Z and this one plugin/vX.Y.Z,
// with the requirement above raised to the root's vX.Y.Z.
replace github.com/deadlinelint/deadlinelint => ../
