" Vim filetype detection for Simple (simplec) sources: *.smp files.
" Installed by `cmake --install` into share/vim/vimfiles/ftdetect/.
autocmd BufRead,BufNewFile *.smp setfiletype simple
