// Package testdatacheck holds no code, only a test: it proves that every
// package under the repository's testdata/src tree (the GOPATH-style stubs of
// third-party APIs used by analysistest, and the generated service packages
// built on them) type-checks, so that a broken stub shows up as one clear
// failure here rather than as confusing results in every rule's tests.
package testdatacheck
