package mcpserve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLine bounds one line of the stdio transport (the SDK's own default).
const MaxLine = mcp.DefaultMaxLineLength

// StdioTransport is MCP's newline-delimited JSON over r and w, forgiving
// of a bad line: the SDK reads its input as one JSON stream, so one line
// that is not JSON, or not a JSON-RPC message, would end the session. A
// line is checked first; a bad one is answered with a JSON-RPC error
// (-32700 Parse error, or -32600 Invalid Request) and skipped, as JSON-RPC
// 2.0 asks of a server. At the end of the input the transport waits for
// the replies to the requests it passed on before it reports the end, so
// a script piped in gets every answer. Closing the transport closes r if
// it can be.
func StdioTransport(r io.Reader, w io.Writer) mcp.Transport {
	out := &lockedWriter{w: w}
	out.cond = sync.NewCond(&out.mu)
	return &mcp.IOTransport{Reader: &lineFilter{in: bufio.NewReaderSize(r, 64<<10), raw: r, out: out}, Writer: out}
}

// lockedWriter serialises the SDK's replies and the filter's, each one
// whole line written in one call, and counts the replies the SDK wrote.
type lockedWriter struct {
	mu       sync.Mutex
	cond     *sync.Cond
	w        io.Writer
	asked    int // requests passed on to the SDK
	answered int // responses it wrote
	closed   bool
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.answered += responses(p)
	l.cond.Broadcast()
	return l.w.Write(p)
}

// write is the filter's own reply, not counted.
func (l *lockedWriter) write(p []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, err := l.w.Write(p)
	return err
}

// drain waits until every request passed on has its response, or the
// transport closed.
func (l *lockedWriter) drain() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.answered < l.asked && !l.closed {
		l.cond.Wait()
	}
}

// requests counts the calls (requests with an id) in a line, and
// responses the responses.
func requests(line []byte) int  { return countMessages(line, true) }
func responses(line []byte) int { return countMessages(line, false) }

func countMessages(line []byte, calls bool) int {
	var raws []json.RawMessage
	if json.Unmarshal(line, &raws) != nil {
		raws = []json.RawMessage{line}
	}
	n := 0
	for _, raw := range raws {
		msg, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			continue
		}
		switch m := msg.(type) {
		case *jsonrpc.Request:
			if calls && m.IsCall() {
				n++
			}
		case *jsonrpc.Response:
			if !calls {
				n++
			}
		}
	}
	return n
}

// Close keeps the writer open: the command may still report on it.
func (l *lockedWriter) Close() error { return nil }

// lineFilter passes on the lines that are JSON-RPC messages and answers
// the others.
type lineFilter struct {
	in      *bufio.Reader
	raw     io.Reader
	out     *lockedWriter
	pending []byte
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		line, err := f.line()
		if len(bytes.TrimSpace(line)) > 0 {
			if code, msg := check(line); code != 0 {
				if werr := f.out.write(rpcError(code, msg)); werr != nil {
					return 0, werr
				}
			} else {
				f.pending = append(append(f.pending[:0], bytes.TrimRight(line, "\r\n")...), '\n')
				f.out.mu.Lock()
				f.out.asked += requests(line)
				f.out.mu.Unlock()
			}
		}
		if err != nil && len(f.pending) == 0 {
			if err == io.EOF {
				f.out.drain()
			}
			return 0, err
		}
		if err != nil {
			break
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// line reads one line, up to MaxLine bytes; a longer one is read to its
// end and given back as tooLong, which check refuses.
func (f *lineFilter) line() ([]byte, error) {
	var buf []byte
	over := false
	for {
		chunk, err := f.in.ReadSlice('\n')
		if !over && len(buf)+len(chunk) > MaxLine {
			over, buf = true, nil
		}
		if !over {
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if over {
			return tooLong, err
		}
		return buf, err
	}
}

// tooLong stands for a line over MaxLine: it is not JSON.
var tooLong = []byte("\x00too long")

func (f *lineFilter) Close() error {
	f.out.mu.Lock()
	f.out.closed = true
	f.out.cond.Broadcast()
	f.out.mu.Unlock()
	if c, ok := f.raw.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// check says what is wrong with a line, or 0 for a JSON-RPC message (or a
// batch of them).
func check(line []byte) (int, string) {
	if bytes.Equal(line, tooLong) {
		return jsonrpc.CodeParseError, fmt.Sprintf("Parse error: the line is over %d bytes", MaxLine)
	}
	if !json.Valid(line) {
		return jsonrpc.CodeParseError, "Parse error: the line is not JSON"
	}
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) == nil {
		if len(batch) == 0 {
			return jsonrpc.CodeInvalidRequest, "Invalid Request: an empty batch"
		}
		for _, m := range batch {
			if _, err := jsonrpc.DecodeMessage(m); err != nil {
				return jsonrpc.CodeInvalidRequest, notAMessage
			}
		}
		return 0, ""
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return jsonrpc.CodeInvalidRequest, notAMessage
	}
	return 0, ""
}

const notAMessage = `Invalid Request: not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0" and a method, or a result or error with an id)`

func rpcError(code int, msg string) []byte {
	js, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": code, "message": msg}})
	return append(js, '\n')
}
