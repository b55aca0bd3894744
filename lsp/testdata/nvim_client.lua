-- Headless Neovim as an LSP client of srezc lsp (lsp/nvim_test.go): open
-- a.srez.hcl in the working directory, wait for diagnostics, ask for a
-- completion at SREZC_NVIM_LINE:SREZC_NVIM_COL, write both to out.txt.
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
vim.fn.writefile(out, dir .. "/out.txt")
vim.cmd("qa!")
