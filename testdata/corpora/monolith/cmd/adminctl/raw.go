package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/dynamicpb"

	catalogv1 "example.test/monolith/gen/catalog/v1"
)

// cmdRaw invokes a unary method by name with a JSON request, e.g.
//
//	adminctl raw /orders.v1.OrderService/GetOrder '{"id":"42"}'
func cmdRaw(cl *clients, args []string) error {
	if err := need(args, 2, "<method> <json>"); err != nil {
		return err
	}
	method := args[0]
	svc, name, ok := strings.Cut(strings.TrimPrefix(method, "/"), "/")
	if !ok {
		return fmt.Errorf("bad method %q", method)
	}
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(svc))
	if err != nil {
		return err
	}
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return fmt.Errorf("%s is not a service", svc)
	}
	md := sd.Methods().ByName(protoreflect.Name(name))
	if md == nil {
		return fmt.Errorf("no method %s in %s", name, svc)
	}
	in := dynamicpb.NewMessage(md.Input())
	if err := protojson.Unmarshal([]byte(args[1]), in); err != nil {
		return err
	}
	out := dynamicpb.NewMessage(md.Output())
	if err := cl.conn.Invoke(context.Background(), method, in, out); err != nil { // BUG: missingdeadline
		return err
	}
	b, err := protojson.MarshalOptions{Multiline: true}.Marshal(out)
	if err != nil {
		return err
	}
	fmt.Println(string(b))
	return nil
}

// cmdImport streams products from a TSV file (sku, title, price, currency).
func cmdImport(cl *clients, args []string) error {
	if err := need(args, 1, "<file.tsv>"); err != nil {
		return err
	}
	f, err := os.Open(args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	stream, err := cl.catalog.ImportProducts(context.Background()) // OK
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 4 {
			continue
		}
		price, err := strconv.ParseInt(cols[2], 10, 64)
		if err != nil {
			return fmt.Errorf("price of %s: %w", cols[0], err)
		}
		if err := stream.Send(&catalogv1.Product{Sku: cols[0], Title: cols[1], BasePriceMinor: price, Currency: cols[3], Active: true}); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	res, err := stream.CloseAndRecv()
	if err != nil {
		return err
	}
	fmt.Printf("imported %d, skipped %d\n", res.GetImported(), res.GetSkipped())
	return nil
}
