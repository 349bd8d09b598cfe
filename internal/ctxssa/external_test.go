package ctxssa

import (
	"go/build"
	"path/filepath"
	"testing"
)

// TestIsExternalFile checks the file names code the user does not own has, read from source
// (absolute paths) and from export data (as the go command compiled them: $GOROOT-relative,
// and module@version-relative under -trimpath): the standard library's errors.Unwrap read from
// export data was taken for the user's own code, a mapping helper statusmask trusted, on the
// routes that read export data and not in the process.
func TestIsExternalFile(t *testing.T) {
	goroot := filepath.ToSlash(filepath.Clean(build.Default.GOROOT))
	for name, want := range map[string]bool{
		goroot + "/src/errors/wrap.go":                                true,
		"$GOROOT/src/errors/wrap.go":                                  true,
		"/root/go/pkg/mod/google.golang.org/grpc@v1.77.0/server.go":   true,
		"google.golang.org/grpc@v1.77.0/server.go":                    true,
		"github.com/a/b/v2@v2.0.0-20260101000000-abcdef012345/x/y.go": true,
		"/home/u/svc/vendor/github.com/a/b/b.go":                      true,
		"/home/u/svc/internal/server/server.go":                       false,
		"example.com/svc/internal/server/server.go":                   false, // the main module, trimmed
		"/home/u/svc@work/main.go":                                    false,
		"":                                                            false,
	} {
		if got := isExternalFile(name); got != want {
			t.Errorf("isExternalFile(%q) = %v, want %v", name, got, want)
		}
	}
}
