package output

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSARIFSchema validates the SARIF output against the official
// SARIF 2.1.0 JSON schema (testdata/sarif-schema-2.1.0.json).
func TestSARIFSchema(t *testing.T) {
	schema := compileSARIFSchema(t)
	for name, r := range map[string]*Report{
		"findings": sampleReport(t),
		"empty":    {ToolName: "deadlinelint"},
	} {
		t.Run(name, func(t *testing.T) {
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(render(t, "sarif", r)))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(doc); err != nil {
				t.Errorf("SARIF output is not valid SARIF 2.1.0: %v", err)
			}
		})
	}
}

// TestSARIFSchemaRejects checks that the validation can fail: a result
// without a message breaks the schema.
func TestSARIFSchemaRejects(t *testing.T) {
	schema := compileSARIFSchema(t)
	var log map[string]any
	if err := json.Unmarshal([]byte(render(t, "sarif", sampleReport(t))), &log); err != nil {
		t.Fatal(err)
	}
	result := log["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)
	delete(result, "message")
	if err := schema.Validate(log); err == nil {
		t.Error("schema accepted a result without a message")
	}
}

func compileSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/sarif-schema-2.1.0.json")
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
