-- srezc's language server for *.srez.hcl files. Neovim 0.9+ runs this
-- file when 'exrc' is set and you trust it (:help exrc).
vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
  pattern = "*.srez.hcl",
  callback = function(args)
    vim.lsp.start({
      name = "srezc",
      cmd = { "srezc", "lsp" },
      root_dir = vim.fs.dirname(vim.api.nvim_buf_get_name(args.buf)),
    })
  end,
})
