#ifndef OFFICER_CARCHIVE_SHIM_H
#define OFFICER_CARCHIVE_SHIM_H
/* libarchive has no variadic calls; this header only gathers what Preview imports. */
#include <archive.h>
#include <archive_entry.h>
#endif
