// Package grpc is a type-checking stub of google.golang.org/grpc (v1.85.0)
// for analysistest. Declarations match the real API; bodies are minimal.
package grpc
