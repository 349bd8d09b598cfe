// Command dryrunapp calls package dryrunlib's convenience APIs, known through their facts: a
// constant that keeps an API from its RPC (a dry run) makes none.
package main

import (
	"flag"

	"example.com/gen/catalogpb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"missingdeadline/dryrunlib"
)

func main() {
	apply := flag.Bool("apply", false, "apply the moves")
	flag.Parse()
	conn, err := grpc.NewClient("localhost:8080", grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		panic(err)
	}
	c := catalogpb.NewCatalogClient(conn)

	_ = dryrunlib.Move(c, "a", false)        // a dry run: silent
	_ = dryrunlib.Plan(c, "b")               // plans only: silent
	_ = dryrunlib.Move(c, "c", true)         // want `dryrunlib\.Move calls RPC CatalogClient\.GetItem with context\.Background\(\), which has no deadline`
	_ = dryrunlib.Move(c, "d", *apply)       // want `dryrunlib\.Move calls RPC`
	_ = dryrunlib.Sync(c, "e")               // want `dryrunlib\.Sync calls RPC`
	_ = dryrunlib.Touch(c, "f", false, true) // want `dryrunlib\.Touch calls RPC`

	m := &dryrunlib.Mover{C: c}
	_ = m.Set("h", false) // a dry run: silent
	_ = m.Set("i", true)  // want `Mover\.Set calls RPC`
	set := m.Set          // a method value: its calls pass no receiver
	_ = set("j", false)   // a dry run: silent
	_ = set("k", true)    // want `Mover\.Set calls RPC`
}
