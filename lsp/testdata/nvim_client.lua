-- Headless Neovim as an LSP client of srezc lsp (lsp/nvim_test.go): open
-- a.srez.hcl in the working directory, wait for diagnostics, ask for a
-- completion at SREZC_NVIM_LINE:SREZC_NVIM_COL and a rename at
-- SREZC_NVIM_RENAME_LINE:SREZC_NVIM_RENAME_COL to SREZC_NVIM_RENAME_TO,
-- write all three to out.txt.
local out = {}
local dir = vim.fn.getcwd()
local client = vim.lsp.start_client({ name = "srezc", cmd = { "srezc", "lsp" }, root_dir = dir })
vim.cmd("edit " .. dir .. "/a.srez.hcl")
local buf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buf, client)
local ok = vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(out, string.format("diagnostic %d:%d %s", d.lnum, d.col, d.message))
end
local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = tonumber(os.getenv("SREZC_NVIM_LINE")), character = tonumber(os.getenv("SREZC_NVIM_COL")) } }
local res = vim.lsp.buf_request_sync(buf, "textDocument/completion", params, 10000)
for _, r in pairs(res or {}) do
  local items = r.result and (r.result.items or r.result) or {}
  for _, it in ipairs(items) do table.insert(out, "completion " .. it.label) end
end
-- pcall: an error must still reach writefile and qa, or Neovim waits at a prompt.
local ok, err = pcall(function()
  local rparams = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = tonumber(os.getenv("SREZC_NVIM_RENAME_LINE")), character = tonumber(os.getenv("SREZC_NVIM_RENAME_COL")) }, newName = os.getenv("SREZC_NVIM_RENAME_TO") }
  local rres = vim.lsp.buf_request_sync(buf, "textDocument/rename", rparams, 10000)
  for _, r in pairs(rres or {}) do
    if r.err then table.insert(out, "rename error " .. r.err.message) end
    for u, edits in pairs((r.result or {}).changes or {}) do
      for _, e in ipairs(edits) do
        table.insert(out, string.format("rename %s %d:%d-%d %s", vim.fn.fnamemodify(vim.uri_to_fname(u), ":t"), e.range.start.line, e.range.start.character, e.range["end"].character, e.newText))
      end
    end
  end
end)
if not ok then table.insert(out, "lua error " .. tostring(err)) end
vim.fn.writefile(out, dir .. "/out.txt")
vim.cmd("qa!")
