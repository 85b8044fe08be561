#include "vendor/check.h"

int leap_year(int year);

int main(void) {
    CHECK(leap_year(2024) == 1);
    CHECK(leap_year(2023) == 0);
    CHECK(leap_year(1900) == 0);
    CHECK(leap_year(2000) == 1);
    return CHECK_DONE();
}
