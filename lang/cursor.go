package lang

import (
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Cursor is where a byte offset falls in a document's syntax, read from a
// partial parse so that it works mid-typing: the enclosing blocks, and the
// attribute or block label the offset is in. The language server completes
// and documents from it.
type Cursor struct {
	// Blocks are the enclosing blocks, outermost first: their types and
	// labels.
	Blocks []CursorBlock
	// Attr is the attribute the offset is in ("" if none); InValue says
	// the offset is in its value rather than its name.
	Attr    string
	InValue bool
	// Label is the index of the block label the offset is in, or -1.
	Label int
}

// CursorBlock is one enclosing block.
type CursorBlock struct {
	Type   string
	Labels []string
}

// CursorAt locates a byte offset in src.
func CursorAt(src []byte, off int) Cursor {
	c := Cursor{Label: -1}
	// The tree comes from the parse cache: an editor asks for
	// completion, then hover, on the same text.
	f, _, over := parseCached(&File{Name: "doc", Src: src})
	if over.HasErrors() || f == nil {
		return c
	}
	body, _ := f.Body.(*hclsyntax.Body)
	for body != nil {
		var next *hclsyntax.Body
		for _, b := range body.Blocks {
			r := b.Range()
			if off < r.Start.Byte || off > r.End.Byte {
				continue
			}
			c.Blocks = append(c.Blocks, CursorBlock{Type: b.Type, Labels: b.Labels})
			for i, lr := range b.LabelRanges {
				if off >= lr.Start.Byte && off <= lr.End.Byte {
					c.Label = i
					return c
				}
			}
			next = b.Body
			break
		}
		if next == nil {
			for _, a := range body.Attributes {
				r := a.SrcRange
				if off >= r.Start.Byte && off <= r.End.Byte {
					c.Attr = a.Name
					er := a.Expr.Range()
					c.InValue = off >= er.Start.Byte && off <= er.End.Byte
				}
			}
		}
		body = next
	}
	return c
}

// BlockType is the innermost enclosing block's type ("" at the top).
func (c Cursor) BlockType() string {
	if len(c.Blocks) == 0 {
		return ""
	}
	return c.Blocks[len(c.Blocks)-1].Type
}
