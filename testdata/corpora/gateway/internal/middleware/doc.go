// Package middleware holds the gateway's gRPC server interceptors: request ids,
// authentication, tenancy, admission control, per-method deadlines, request
// caches, auditing, metrics and panic recovery. internal/server chains them.
package middleware
