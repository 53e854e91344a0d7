a = int8(1) + int16(2);
