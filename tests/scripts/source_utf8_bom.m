% A UTF-8 byte order mark before the first line is not program text.
x = 1 + 1
