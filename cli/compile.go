package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/record"
)

// load analyses and compiles paths, printing diagnostics; it fails when
// there are errors.
func (e *env) load(paths []string, opt compiler.Options) ([]*engine.Task, error) {
	_, tasks, err := e.loadModule(paths, opt)
	return tasks, err
}

// loadModule is load that also returns the analysed module.
func (e *env) loadModule(paths []string, opt compiler.Options) (*lang.Module, []*engine.Task, error) {
	files, diags := readInputs(paths)
	m, more := lang.Analyze(files)
	diags = append(diags, more...)
	if opt.Cache == nil {
		opt.Cache = e.certified
	}
	tasks, cdiags := compiler.CompileWith(m, opt)
	diags = append(diags, cdiags...).Sort()
	lang.WriteText(e.stderr, m.Files, e.shown(diags))
	if diags.HasErrors() {
		return nil, nil, errPrinted
	}
	return m, tasks, nil
}

// shown drops certification warnings (the sre_zero profile's findings on
// imported tasks) for commands that only run tasks: srezc list shows the
// verdicts, validate and certify the reasons.
func (e *env) shown(diags lang.Diagnostics) lang.Diagnostics {
	if e.certWarnings {
		return diags
	}
	var out lang.Diagnostics
	for _, d := range diags {
		if d.Severity == lang.Error || d.Summary != compiler.NotCertified {
			out = append(out, d)
		}
	}
	return out
}

// readInputs reads PATHs, or the embedded default (the default suite's
// incidents and the mutations over them) when there are none.
func readInputs(paths []string) ([]*lang.File, lang.Diagnostics) {
	if len(paths) == 0 {
		return lang.EmbeddedFiles(), nil
	}
	return lang.ReadPaths(paths)
}

// writeAtomic writes a file through a temporary file and a rename, so no
// half-written file is ever left behind.
func writeAtomic(path string, data []byte) error { return writeAtomicMode(path, data, 0o644) }

// writeAtomicMode is writeAtomic giving the file mode perm before it
// appears under its name.
func writeAtomicMode(path string, data []byte, perm os.FileMode) error {
	if err := record.WriteFileAtomicMode(path, data, perm); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}

func (e *env) compileCmd() *cobra.Command {
	var out, dumpAfter, suite string
	c := &cobra.Command{
		Use:   "compile [-o DIR | --suite FILE] [--dump-after STAGE] [PATH...]",
		Short: "Compile incidents into versioned IR files (one per incident, named ID.srez.ir)",
		RunE: func(c *cobra.Command, args []string) error {
			if dumpAfter != "" && out != "" {
				return usageError{fmt.Errorf("--dump-after prints the task; it cannot be combined with -o")}
			}
			if dumpAfter != "" {
				ok := false
				for _, s := range compiler.StageNames() {
					ok = ok || s == dumpAfter
				}
				if !ok {
					return usageError{fmt.Errorf("--dump-after takes one of %s", strings.Join(compiler.StageNames(), ", "))}
				}
			}
			if suite != "" && (out != "" || dumpAfter != "") {
				return usageError{fmt.Errorf("--suite writes one file; it cannot be combined with -o or --dump-after")}
			}
			e.certWarnings = true
			tasks, err := e.load(args, compiler.Options{DumpAfter: dumpAfter})
			if err != nil {
				return err
			}
			if suite != "" {
				data, err := engine.EncodeSuite(tasks)
				if err != nil {
					return err
				}
				if err := writeAtomic(suite, data); err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "wrote %s: %d tasks, suite %s\n", suite, len(tasks), engine.SuiteHash(tasks))
				return nil
			}
			for _, t := range tasks {
				if dumpAfter != "" {
					fmt.Fprintf(e.stdout, "# %s after %s\n", t.ID, dumpAfter)
					fmt.Fprint(e.stdout, engine.Dump(t))
					continue
				}
				data, err := engine.EncodeTask(t)
				if err != nil {
					return err
				}
				if out == "" {
					fmt.Fprintf(e.stdout, "%s %s\n", t.ID, t.Hash)
					continue
				}
				if err := os.MkdirAll(out, 0o755); err != nil {
					return err
				}
				if err := writeAtomic(filepath.Join(out, t.ID+".srez.ir"), data); err != nil {
					return err
				}
			}
			if dumpAfter == "" && out == "" {
				fmt.Fprintf(e.stdout, "suite %s\n", engine.SuiteHash(tasks))
			}
			return nil
		},
	}
	c.Flags().StringVarP(&out, "out", "o", "", "folder to write IR files to (default: print ids and hashes)")
	c.Flags().StringVar(&dumpAfter, "dump-after", "", "stop after a compiler stage and print the task as text")
	c.Flags().StringVar(&suite, "suite", "", "write the whole suite as one compiled file, which srezc serve and srezc mcp run without sources")
	return c
}

// loadServed loads the tasks a server runs: a compiled suite file (srezc
// compile --suite), or sources as every command reads them.
func (e *env) loadServed(paths []string) ([]*engine.Task, error) {
	if len(paths) == 1 {
		if f, err := os.Open(paths[0]); err == nil {
			head := make([]byte, 16)
			n, _ := f.Read(head)
			f.Close()
			if engine.IsSuite(head[:n]) {
				data, err := os.ReadFile(paths[0])
				if err != nil {
					return nil, err
				}
				tasks, err := engine.DecodeSuite(data)
				if err != nil {
					return nil, fmt.Errorf("%s: %v", paths[0], err)
				}
				return tasks, nil
			}
		}
	}
	return e.load(paths, compiler.Options{})
}
