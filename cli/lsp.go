package cli

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/srezc/srezc/lsp"
)

// stdio joins the process's standard input and output into the stream the
// language server speaks over.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }

func (e *env) lspCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server over standard input and output",
		Long: `Speak the Language Server Protocol over stdin and stdout for an editor:
diagnostics on open and on every change (analysis first, certification when
it is ready), formatting, go to definition (into the stdlib, materialised to a
read-only cache folder) and the document outline.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return lsp.Serve(context.Background(), stdio{e.stdin, e.stdout})
		},
	}
}
