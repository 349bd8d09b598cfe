package behalf

import (
	"context"
	"os/exec"

	"example.com/gen/catalogpb"
)

// Versions answers with the versions of the tools the server runs: asked of each tool once,
// on the first request, and kept in a field for every later one.
type Versions struct {
	catalogpb.UnimplementedCatalogServer
	tool, chart string
	build       string
	refresh     bool
}

// toolVersion runs the tool with a root: it has no ctx to pass.
func toolVersion() (string, error) { // want toolVersion:"drops ctx"
	out, err := exec.CommandContext(context.Background(), "tool", "version").Output()
	return string(out), err
}

// chartVersion does the same for another tool.
func chartVersion() (string, error) { // want chartVersion:"drops ctx"
	out, err := exec.CommandContext(context.Background(), "chart", "version").Output()
	return string(out), err
}

// labelVersion does the same for a third.
func labelVersion() (string, error) { // want labelVersion:"drops ctx"
	out, err := exec.CommandContext(context.TODO(), "label", "version").Output()
	return string(out), err
}

// nameOf asks the tool for a record's name, with a root.
func nameOf(id string) (string, error) { // want nameOf:"drops ctx"
	out, err := exec.CommandContext(context.Background(), "tool", "name", id).Output()
	return string(out), err
}

type record struct{ ID, Name string }

// buildInfo runs the tool with the ctx it is given.
func buildInfo(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "tool", "build-info").Output()
	return string(out), err
}

func (v *Versions) GetItem(ctx context.Context, req *catalogpb.GetItemRequest) (*catalogpb.Item, error) {
	if v.tool == "" {
		tool, err := toolVersion() // the first use fills the field for everyone: silent
		if err != nil {
			tool = err.Error()
		}
		v.tool = tool
	}
	if v.build == "" {
		v.build, _ = buildInfo(context.Background()) // made in the handler, on the first use only: silent
	}
	if v.refresh { // a field the handler never sets: every request may run it
		chart, err := chartVersion() // want `behalf\.chartVersion, called in handler Versions\.GetItem, works with context\.Background\(\)`
		if err != nil {
			return nil, err
		}
		v.chart = chart
	}
	rec := &record{ID: req.GetId()}
	if rec.Name == "" { // the request's own record, not the server's: every request runs it
		name, err := nameOf(rec.ID) // want `behalf\.nameOf, called in handler Versions\.GetItem, works with context\.Background\(\)`
		if err != nil {
			return nil, err
		}
		rec.Name = name
	}
	label := ""
	if label == "" { // a local, not shared state: every request runs it
		l, err := labelVersion() // want `behalf\.labelVersion, called in handler Versions\.GetItem, works with context\.TODO\(\)`
		if err != nil {
			return nil, err
		}
		label = l
	}
	return &catalogpb.Item{Id: req.GetId(), Name: v.tool + v.chart + v.build + label + rec.Name}, nil
}
