package lang

import (
	"bytes"

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
	// Keyword says the offset is on the innermost block's type.
	Keyword bool
}

// CursorBlock is one enclosing block.
type CursorBlock struct {
	Type   string
	Labels []string
}

// CursorAt locates a byte offset in src. Only the top-level block around
// the offset is measured and parsed (see topLevelSpan): the cursor lies
// inside it, and the language server locates a cursor per keystroke, so
// its cost is the block's, not the file's (on a 1,000-line file a whole
// parse with its limits pre-scan took most of completion's time).
func CursorAt(src []byte, off int) Cursor {
	off = max(0, min(off, len(src)))
	start, end := topLevelSpan(src, off)
	return cursorIn(src[start:end], off-start)
}

// topLevelSpan is the part of src from the line that opens the top-level
// block around off (or the file's start) to the line that opens the next
// (or the file's end). A top-level block opens with its type at the start
// of a line, as srezc fmt writes it; a line inside a heredoc or a /* */
// comment that starts with a block type would split a block there, which
// costs only the enclosing blocks of a cursor below it in that block.
func topLevelSpan(src []byte, off int) (int, int) {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	for start > 0 && !opensTopLevel(src[start:]) {
		start = bytes.LastIndexByte(src[:start-1], '\n') + 1
	}
	end := len(src)
	for i := off; i < len(src); {
		nl := bytes.IndexByte(src[i:], '\n')
		if nl < 0 {
			break
		}
		i += nl + 1
		if opensTopLevel(src[i:]) {
			end = i
			break
		}
	}
	return start, end
}

// opensTopLevel says a line starts with a top-level block type.
func opensTopLevel(line []byte) bool {
	for _, t := range SchemaAt().Blocks {
		if len(line) > len(t) && string(line[:len(t)]) == t {
			switch line[len(t)] {
			case ' ', '\t', '"', '{':
				return true
			}
		}
	}
	return false
}

func cursorIn(src []byte, off int) Cursor {
	c := Cursor{Label: -1}
	// The tree comes from the parse cache: an editor analyses a
	// document, then asks for completion and hover on the same text.
	f := parsedTree("doc", src)
	if f == nil {
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
			if tr := b.TypeRange; off >= tr.Start.Byte && off <= tr.End.Byte {
				c.Keyword = true
				return c
			}
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

// Path is the types of the enclosing blocks, outermost first: the
// context's path in the schema table (SchemaAt).
func (c Cursor) Path() []string {
	out := make([]string, len(c.Blocks))
	for i, b := range c.Blocks {
		out[i] = b.Type
	}
	return out
}

// BlockType is the innermost enclosing block's type ("" at the top).
func (c Cursor) BlockType() string {
	if len(c.Blocks) == 0 {
		return ""
	}
	return c.Blocks[len(c.Blocks)-1].Type
}
