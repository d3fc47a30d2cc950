# Writes OUT, a C++ file defining `const char NAME[]` holding the bytes of
# IN (used for the sys library, runtime/sys.smp). Run with cmake -P.
file(READ ${IN} TEXT)
file(WRITE ${OUT} "// Generated from ${IN} by parser/embed_text.cmake: do not edit.\n"
  "namespace simplec {\nextern const char ${NAME}[];\n"
  "const char ${NAME}[] = R\"SIMPLEC_EMBED(${TEXT})SIMPLEC_EMBED\";\n}\n")
