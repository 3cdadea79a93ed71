# Turns a file into a C source defining `const char NAME[]` (NUL-terminated).
#   cmake -DIN=file -DOUT=file.c -DNAME=symbol -P embed.cmake
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" n)
set(body "")
if(n GREATER 0)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
  string(REGEX REPLACE "((0x..,){16})" "\\1\n    " body "${body}")
endif()
file(WRITE "${OUT}" "/* Generated from ${IN}; do not edit. */\nconst char ${NAME}[] = {\n    ${body}0x00};\n")
