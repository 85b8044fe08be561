#include <stdio.h>

int square(int n) {
    printf("square(%d) from C\n", n);
    return n * n;
}
