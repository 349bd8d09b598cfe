// Command cmd imports no context package and depends on no gRPC package: its call of the
// convenience API is a client call by the API's fact alone.
package main

import (
	"fmt"

	"missingdeadline/clientapis/wrap"
)

func main() {
	v, err := wrap.Fetch() // want `wrap.Fetch calls`
	fmt.Println(v, err, wrap.Name())
}
