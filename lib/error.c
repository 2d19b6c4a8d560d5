/* Strings for the error enum; see error.h. */
#include "error.h"

static const char *const messages[] = {
#define ST_MSG_(name, msg) msg,
    ST_ERRORS(ST_MSG_)
#undef ST_MSG_
};

static const char *const names[] = {
#define ST_NAME_(name, msg) #name,
    ST_ERRORS(ST_NAME_)
#undef ST_NAME_
};

const char *st_strerror(enum st_err e)
{
    if ((unsigned)e >= ST_ERR_COUNT)
        return "unknown error";
    return messages[e];
}

const char *st_errname(enum st_err e)
{
    if ((unsigned)e >= ST_ERR_COUNT)
        return "ST_E?";
    return names[e];
}
