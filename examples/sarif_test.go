package examples_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSARIFSchema runs deadlinelint -format sarif on the examples and validates what it writes
// against the official SARIF 2.1.0 JSON schema; and, so that the check can fail, that a result
// without a message breaks the schema.
func TestSARIFSchema(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	schema := compileSARIFSchema(t, filepath.Join(root, "internal", "output", "testdata", "sarif-schema-2.1.0.json"))
	bin := buildLinter(t, root)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "-format", "sarif", "./...")
	cmd.Dir, cmd.Stdout, cmd.Stderr = filepath.Join(root, "examples"), &stdout, &stderr
	var exit *exec.ExitError
	if err := cmd.Run(); err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("deadlinelint -format sarif ./...: %v\n%s", err, stderr.Bytes())
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(stdout.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(doc); err != nil {
		t.Errorf("SARIF output is not valid SARIF 2.1.0: %v", err)
	}

	var log map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	results := log["runs"].([]any)[0].(map[string]any)["results"].([]any)
	if len(results) == 0 {
		t.Fatal("no results in the SARIF log of the examples")
	}
	delete(results[0].(map[string]any), "message")
	if err := schema.Validate(log); err == nil {
		t.Error("schema accepted a result without a message")
	}
}

func compileSARIFSchema(t *testing.T, file string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	const url = "sarif-schema-2.1.0.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return schema
}
