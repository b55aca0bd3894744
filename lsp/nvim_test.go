package lsp_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNeovimClient: a real editor as the client. Headless Neovim (its
// built-in LSP client; .ci/run installs Debian's neovim) opens a shipped
// scenario with a misspelt fault kind, attaches srezc lsp, and the test
// reads back the diagnostics, a completion list and a rename's edits
// Neovim received.
func TestNeovimClient(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (.ci/run installs it)")
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "srezc"), "github.com/srezc/srezc/cmd/srezc")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building srezc: %v\n%s", err, out)
	}
	dir := t.TempDir()
	src, err := os.ReadFile("../scenarios/db_pool.srez.hcl")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), `fault "db_pool_too_small"`, `fault "db_pool_too_smal"`, 1)
	if text == string(src) {
		t.Fatal("the scenario has no db_pool_too_small fault to misspell")
	}
	if err := os.WriteFile(filepath.Join(dir, "a.srez.hcl"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("testdata/nvim_client.lua")
	if err != nil {
		t.Fatal(err)
	}
	// The label of the fault block: line and column for the completion.
	line := strings.Count(text[:strings.Index(text, `fault "db_pool_too_smal"`)], "\n")
	cmd := exec.Command(nvim, "--headless", "-u", "NONE", "-c", "luafile "+script)
	cmd.Dir = dir
	// The incident's label, renamed: its one occurrence.
	rename := strings.Count(text[:strings.Index(text, `incident "`)], "\n")
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "XDG_CACHE_HOME="+t.TempDir(),
		"SREZC_NVIM_LINE="+strconv.Itoa(line), "SREZC_NVIM_COL=10",
		"SREZC_NVIM_RENAME_LINE="+strconv.Itoa(rename), "SREZC_NVIM_RENAME_COL=11", "SREZC_NVIM_RENAME_TO=db_pool_renamed")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	out, err := os.ReadFile(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatalf("nvim wrote no results: %v", err)
	}
	got := string(out)
	want := "diagnostic " + strconv.Itoa(line) + ":8 Unknown fault kind: There is no fault kind named \"db_pool_too_smal\". Did you mean \"db_pool_too_small\"?"
	if !strings.Contains(got, want) {
		t.Errorf("Neovim's diagnostics lack %q:\n%s", want, got)
	}
	if !strings.Contains(got, "completion db_index_disabled\n") || !strings.Contains(got, "completion service_crash\n") {
		t.Errorf("Neovim's completion list lacks fault kinds:\n%s", got)
	}
	if want := "rename a.srez.hcl " + strconv.Itoa(rename) + ":10-17 db_pool_renamed\n"; !strings.Contains(got, want) || strings.Count(got, "rename ") != 1 {
		t.Errorf("Neovim's rename lacks %q:\n%s", want, got)
	}
}
