x = int8(1):int16(3);
