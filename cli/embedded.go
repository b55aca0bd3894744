package cli

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/srezc/srezc/lang"
)

// starterFS is what srezc init writes; starterNames maps a file to its
// name in the new module where the two differ (go:embed leaves out
// dot-files).
//
//go:embed starter/*
var starterFS embed.FS

var starterNames = map[string]string{"nvim.lua": ".nvim.lua", "helix-languages.toml": ".helix/languages.toml"}

func (e *env) initCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "init DIR",
		Short: "Write a starter module: an incident, mutations, a suite spec and editor set-up",
		Long: `Write a starter module into DIR (created if needed): an incident, two
mutations (one of them over the embedded incident mq_backlog), a suite_spec,
a README, and the language server's set-up for Neovim (.nvim.lua) and Helix
(.helix/languages.toml). srezc validate, mutate and suite build work on it
at once. Refuses, writing nothing, when any of those files exists.`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			files := map[string][]byte{}
			entries, err := fs.ReadDir(starterFS, "starter")
			if err != nil {
				return err
			}
			for _, d := range entries {
				data, err := fs.ReadFile(starterFS, "starter/"+d.Name())
				if err != nil {
					return err
				}
				name := d.Name()
				if to, ok := starterNames[name]; ok {
					name = to
				}
				files[name] = data
			}
			if err := writeNewFiles(args[0], files); err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "wrote a starter module into %s (%d files): srezc validate %s\n", args[0], len(files), args[0])
			return nil
		},
	}
}

// exportScenarios writes the embedded default's sources under dir: the
// scenarios and mutations as a module (srezc validate DIR gives the
// default suite's tasks and hashes), and the stdlib under _stdlib, which
// the loader skips (every analysis has the embedded stdlib already; the
// copy is for reading).
func (e *env) exportScenarios(dir string) error {
	files := map[string][]byte{}
	for _, f := range lang.EmbeddedFiles() {
		files[f.Name] = f.Src
	}
	for _, f := range lang.StdlibFiles() {
		files[lang.ExportedStdlibDir+"/"+strings.TrimPrefix(f.Name, lang.StdlibPrefix)] = f.Src
	}
	if err := writeNewFiles(dir, files); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "exported %d scenario and mutation files and the stdlib (%s, for reading) into %s\n",
		len(lang.EmbeddedFiles()), lang.ExportedStdlibDir, dir)
	return nil
}

// writeNewFiles writes files (slash-separated paths relative to dir) all
// or none, never replacing a file: it refuses when any exists, stages
// every file in a temporary folder inside dir, then links each into
// place (a link fails rather than replace a file that appeared
// meanwhile), removing what it placed when one fails.
func writeNewFiles(dir string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var exist []string
	for _, n := range names {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(n))); err == nil {
			exist = append(exist, filepath.Join(dir, filepath.FromSlash(n)))
		}
	}
	if len(exist) > 0 {
		more := ""
		if len(exist) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(exist)-1)
		}
		return fmt.Errorf("%s already exists%s; nothing was written", exist[0], more)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %w", dir, unwrapPath(err))
	}
	stage, err := os.MkdirTemp(dir, ".srezc-new-*")
	if err != nil {
		return fmt.Errorf("cannot write into %s: %w", dir, unwrapPath(err))
	}
	defer os.RemoveAll(stage)
	for _, n := range names {
		p := filepath.Join(stage, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, files[n], 0o644); err != nil {
			return fmt.Errorf("cannot write into %s: %w", dir, unwrapPath(err))
		}
	}
	var placed []string
	undo := func() {
		for i := len(placed) - 1; i >= 0; i-- {
			os.Remove(placed[i])
		}
	}
	for _, n := range names {
		to := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			undo()
			return err
		}
		if err := os.Link(filepath.Join(stage, filepath.FromSlash(n)), to); err != nil {
			undo()
			if errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("%s already exists; nothing was written", to)
			}
			return fmt.Errorf("cannot write %s: %w", to, unwrapPath(err))
		}
		placed = append(placed, to)
	}
	return nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
