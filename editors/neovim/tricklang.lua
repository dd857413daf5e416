-- tricklang for Neovim 0.7 and later: the filetype of *.trick files, and the language
-- server (`tricklang lsp`, from `pip install 'tricklang[lsp]'`) for them.
-- Put this in init.lua (or `require` it from there, or `:luafile` it).
vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
  pattern = "*.trick",
  callback = function(args)
    vim.bo[args.buf].filetype = "tricklang"
  end,
})

vim.api.nvim_create_autocmd("FileType", {
  pattern = "tricklang",
  callback = function(args)
    local config = {
      name = "tricklang",
      cmd = { "tricklang", "lsp" },
      root_dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ":p:h"),
    }
    if vim.lsp.start then -- Neovim 0.8 and later: one server per root, reused
      vim.lsp.start(config, { bufnr = args.buf })
    else -- Neovim 0.7: one server, started once
      _G.tricklang_lsp_client = _G.tricklang_lsp_client or vim.lsp.start_client(config)
      vim.lsp.buf_attach_client(args.buf, _G.tricklang_lsp_client)
    end
  end,
})
