#include <stdio.h>

long count_odd(const long *values, long n);
long add3(long a, long b, long c);
void shout(const char *text);

int main(void) {
    static const long values[] = {3, 8, 5, 1, 4};
    long total = 0;
    for (long i = 0; i < 3; i++) total += add3(i, count_odd(values, 5), 1);
    shout("counted");
    printf("%ld\n", total);
    return 0;
}
