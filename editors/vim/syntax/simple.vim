" Vim syntax file
" Language:   Simple (the language of simplec, *.smp files)
" Installed by `cmake --install` into share/vim/vimfiles/syntax/.
"
" Follows the lexer (lexer/lexer.cpp, LANGUAGE.md section 2). The patterns
" stay within a small subset of Vim's (very magic `\v` with `<`, `>`,
" groups, `|`, `?`, `*`, `+`, `{n}`, classes) because test/editors/
" highlight_test.py reads this file with its own small engine and checks it
" against the compiler's tokens; only `syn keyword`, `syn match` and
" `syn region` (start, skip, end, contains, oneline) are used.

if exists("b:current_syntax")
  finish
endif

syn keyword simpleConditional if else
syn keyword simpleRepeat      while for
syn keyword simpleStatement   break continue return
syn keyword simpleStructure   struct
syn keyword simpleKeyword     new
syn keyword simpleStorage     var val
syn keyword simpleBoolean     true false
syn keyword simpleConstant    null
syn keyword simpleType        int i8 i16 i32 i64 u1 u8 u16 u32 bool byte flt f32 f64

" Integers: decimal and hex, with _ separators. Floats need a fraction or an
" exponent (1.5, 2.0e-3, 1e5); defined after the integers so that they win
" where both start.
syn match simpleNumber "\v<[0-9][0-9_]*>"
syn match simpleNumber "\v<0[xX][0-9A-Fa-f_]+>"
syn match simpleFloat  "\v<[0-9][0-9_]*(\.[0-9][0-9_]*)?[eE][-+]?[0-9][0-9_]*>"
syn match simpleFloat  "\v<[0-9][0-9_]*\.[0-9][0-9_]*>"

" Strings and chars: escapes \n \t \r \0 \\ \" \' \xHH.
syn match  simpleEscape    contained +\v\\([ntr0\\"']|x[0-9A-Fa-f]{2})+
syn region simpleString    start=+\v"+ skip=+\v\\.+ end=+\v"+ oneline contains=simpleEscape
syn match  simpleCharacter +\v'([^'\\]|\\([ntr0\\"']|x[0-9A-Fa-f]{2}))'+

syn match  simpleLineComment  "\v//.*$"
syn region simpleBlockComment start=+\v/\*+ end=+\v\*/+

hi def link simpleConditional  Conditional
hi def link simpleRepeat       Repeat
hi def link simpleStatement    Statement
hi def link simpleStructure    Structure
hi def link simpleKeyword      Keyword
hi def link simpleStorage      StorageClass
hi def link simpleBoolean      Boolean
hi def link simpleConstant     Constant
hi def link simpleType         Type
hi def link simpleNumber       Number
hi def link simpleFloat        Float
hi def link simpleEscape       SpecialChar
hi def link simpleString       String
hi def link simpleCharacter    Character
hi def link simpleLineComment  Comment
hi def link simpleBlockComment Comment

let b:current_syntax = "simple"
