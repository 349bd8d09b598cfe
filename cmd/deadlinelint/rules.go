package main

import "golang.org/x/tools/go/analysis"

// rules lists the analyzers deadlinelint runs.
//
// TODO(driver): replace with analyzers.All() once analyzers/analyzers.go exists.
func rules() []*analysis.Analyzer { return nil }
