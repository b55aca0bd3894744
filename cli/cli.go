// Package cli is the srezc command line: one cobra command per file, built
// per call (no globals), behind Main, which returns the exit code. It is a
// thin layer: every answer comes from lang, compiler and runtime.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc"
	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/internal/buildid"
)

// Exit codes: 0 success, 1 the input has errors (or an episode check
// failed), 2 the command line is wrong, 3 a sweep stopped before its end
// (Ctrl-C, SIGTERM, --pause-file: srezc eval --resume continues it), 130 a
// second Ctrl-C quit at once.
const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2
	exitIncomplete  = 3
	exitInterrupted = 130
)

// errIncomplete means a sweep stopped before its end and said so.
var errIncomplete = errors.New("the sweep is incomplete")

// errPrinted means the command already reported its errors.
var errPrinted = errors.New("errors reported")

type usageError struct{ error }

type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// certWarnings makes commands print certification warnings.
	certWarnings bool
	// certified caches certification across the compiles of one process.
	certified *certify.Cache
}

// Main runs srezc with args and returns the process exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return run(certificationCache(), args, stdin, stdout, stderr)
}

// certificationCache keeps certification results on disk between runs
// (certify.NewDiskCache) under $SREZC_CACHE, or the user's cache folder's
// srezc/certify when that is unset; SREZC_CACHE=off keeps them in memory.
// A cache that cannot be opened is no cache: commands only get slower.
//
// Unless SREZC_CACHE=off, the cache also finds the embedded suite's
// certification results shipped in the binary for this certifier's code
// (certify/shipped.go), so a first run certifies only what was edited or
// is not shipped. SREZC_CACHE=off certifies everything afresh.
func certificationCache() *certify.Cache {
	root := os.Getenv("SREZC_CACHE")
	if root == "off" {
		return certify.NewCache()
	}
	c := certify.NewCache()
	if root == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			root = filepath.Join(dir, "srezc", "certify")
		}
	}
	if code, ok := buildid.Executable(); ok && root != "" {
		c, _ = certify.NewDiskCache(root, code)
	}
	c.UseShippedLazily(srezc.CertifierCode)
	return c
}

func run(cache *certify.Cache, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, certified: cache}
	root := &cobra.Command{
		Use:           "srezc",
		Short:         "Validate, compile and run simulated SRE incidents for agent benchmarks",
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	showVersion := root.Flags().Bool("version", false, "print the versions (as srezc version)")
	root.RunE = func(c *cobra.Command, args []string) error {
		if *showVersion {
			return e.printVersion(false)
		}
		return c.Help()
	}
	root.SetArgs(args)
	// docs and completions (complete.go) are registered apart from the
	// list of commands below; completions once every command is there,
	// before any command (cobra's __complete included) runs.
	root.AddCommand(e.docsCmd())
	root.PersistentPreRun = func(c *cobra.Command, _ []string) { registerCompletions(c.Root()) }
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(e.validateCmd(), e.compileCmd(), e.listCmd(), e.fmtCmd(), e.runCmd(), e.playCmd(), e.evalCmd(), e.certifyCmd(), e.diagnoseCmd(), e.showCmd(), e.importCmd(), e.exportCmd(), e.initCmd(), e.mutateCmd(), e.suiteCmd(), e.lspCmd(), e.toolsCmd(), e.regradeCmd(), e.reportCmd(), e.serveCmd(), e.mcpCmd(), e.versionCmd())
	err := root.Execute()
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errPrinted):
		return exitError
	case errors.Is(err, errIncomplete):
		return exitIncomplete
	}
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		fmt.Fprintf(stderr, "srezc: %v\nRun 'srezc --help' for usage.\n", err)
		return exitUsage
	}
	fmt.Fprintf(stderr, "srezc: %v\n", err)
	return exitError
}

func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least", "invalid argument", "required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}
