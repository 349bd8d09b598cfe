// Package badinput holds the bad-input tests of the deadlinelint command:
// each fixture under testdata/ is a small module that a real project could
// hand the linter by mistake or by design, and the test checks the exit
// status and the message for each.
//
// Expected behaviour (exit status: 0 clean, 1 findings, 2 errors):
//
//	input                                   exit  message on standard error
//	syntax error                            2     package P: syntax error: FILE:LINE:COL: ...
//	type error (other packages still run)   2     package P: type error: FILE:LINE:COL: ...
//	import no module provides               2     names the missing import path and the importer
//	pattern naming a missing directory      2     pattern ./nosuch/...: ...
//	pattern naming an unknown import path   2     pattern example.com/...: no required module provides ...
//	empty directory                         2     pattern ./empty/...: matched no packages (./empty: no Go files)
//	no pattern at all                       2     a usage hint
//	cgo package                             1     its planted finding, placed in the .go file (not in cgo's output)
//	module with vendor/                     1     its planted finding; dependencies come from vendor/
//	go.work workspace                       1     its planted finding; ./... at a workspace root that is not
//	                                              a module is the go command's error, exit 2
//
// Every case must also be free of stack traces and panics. The test builds
// cmd/deadlinelint once per run and is skipped only if that command does
// not exist.
package badinput
