package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/srezc/srezc/lang"
)

// stdinName names standard input in diagnostics and in --check's list.
const stdinName = "<stdin>"

// fmtCmd formats source the way gofmt and terraform fmt do. With no flag it
// prints the formatted source; -w rewrites the files that change (and
// names them); --check (-l) writes nothing, names the files that would
// change and exits 1 if there are any. A file with syntax errors is never
// written: its diagnostics go to stderr and the exit code is 1.
func (e *env) fmtCmd() *cobra.Command {
	var write, check bool
	c := &cobra.Command{
		Use:   "fmt [-w | --check] [PATH...]",
		Short: "Format source files in the canonical layout",
		Long: `Format *.srez.hcl files in the canonical layout (hclwrite's, with LF line
endings and one final newline). PATHs are files or folders (recursive,
*.srez.hcl only); with no PATH, or "-", fmt reads standard input and writes
standard output.

With no flag, fmt prints the formatted source of every file. -w rewrites in
place each file whose formatting changes and prints its name. --check (or -l)
writes nothing, prints the name of each file whose formatting would change,
and exits 1 if there is one. Syntax errors are printed to stderr, the file is
left alone, and the exit code is 1.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if write && check {
				return usageError{fmt.Errorf("-w and --check cannot be used together")}
			}
			if len(args) == 0 || (len(args) == 1 && args[0] == "-") {
				return e.fmtStdin(write, check)
			}
			for _, a := range args {
				if a == "-" {
					return usageError{fmt.Errorf(`"-" (standard input) cannot be mixed with other paths`)}
				}
			}
			return e.fmtPaths(args, write, check)
		},
	}
	c.Flags().BoolVarP(&write, "write", "w", false, "rewrite files whose formatting changes, and print their names")
	c.Flags().BoolVarP(&check, "check", "l", false, "write nothing; list files whose formatting differs and exit 1 if any does")
	// pflag has no single-dash long flags, so "-check" reads as -c -h -e...:
	// point gofmt and terraform habits at the spelling that works.
	c.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if strings.Contains(err.Error(), "in -check") {
			err = fmt.Errorf("%w (did you mean --check?)", err)
		}
		return usageError{err}
	})
	return c
}

func (e *env) fmtStdin(write, check bool) error {
	if write {
		return usageError{fmt.Errorf("-w needs a file to write: cannot use it with standard input")}
	}
	if e.stdin == nil {
		return fmt.Errorf("no standard input")
	}
	// Past the front end's limit the rest is never looked at.
	src, err := io.ReadAll(io.LimitReader(e.stdin, lang.MaxFileBytes+1))
	if err != nil {
		return fmt.Errorf("reading standard input: %w", err)
	}
	f := &lang.File{Name: stdinName, Src: src}
	out, diags := lang.Format(f.Name, f.Src)
	lang.WriteText(e.stderr, []*lang.File{f}, diags)
	switch {
	case diags.HasErrors():
		return errPrinted
	case check:
		if !bytes.Equal(out, src) {
			fmt.Fprintln(e.stdout, stdinName)
			return errPrinted
		}
		return nil
	}
	_, err = e.stdout.Write(out)
	return err
}

func (e *env) fmtPaths(paths []string, write, check bool) error {
	files, diags := lang.ReadPaths(paths)
	failed := diags.HasErrors()
	for _, f := range files {
		out, ds := lang.Format(f.Name, f.Src)
		diags = append(diags, ds...)
		if ds.HasErrors() {
			failed = true
			continue
		}
		changed := !bytes.Equal(out, f.Src)
		switch {
		case check:
			if changed {
				fmt.Fprintln(e.stdout, f.Name)
				failed = true
			}
		case write:
			if !changed {
				continue
			}
			if err := rewrite(f.Name, out); err != nil {
				fmt.Fprintf(e.stderr, "srezc: %v\n", err)
				failed = true
				continue
			}
			fmt.Fprintln(e.stdout, f.Name)
		default:
			if _, err := e.stdout.Write(out); err != nil {
				return err
			}
		}
	}
	lang.WriteText(e.stderr, files, diags.Sort())
	if failed {
		return errPrinted
	}
	return nil
}

// rewrite replaces a file's contents atomically, keeping its permissions.
// A symbolic link is followed, so the link stays and its target changes.
func rewrite(path string, data []byte) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	info, err := os.Stat(real)
	if err != nil {
		return err
	}
	if err := writeAtomicMode(real, data, info.Mode().Perm()); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
