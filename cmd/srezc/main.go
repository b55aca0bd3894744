// Command srezc validates, compiles and runs srezc incidents.
package main

import (
	"os"

	"github.com/srezc/srezc/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
