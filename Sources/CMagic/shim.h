#ifndef OFFICER_CMAGIC_SHIM_H
#define OFFICER_CMAGIC_SHIM_H
/* libmagic has no variadic calls; this header only gathers what Preview imports. */
#include <stddef.h>
#include <magic.h>
#endif
