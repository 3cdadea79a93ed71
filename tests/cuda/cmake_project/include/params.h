// Found only through the include directory CMake writes into the response file.
#define SCALE 0.5
#define ROWS_PER_PASS 8
