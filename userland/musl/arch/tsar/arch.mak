# No compat/time32: TSAR never had a 32-bit time_t ABI.
