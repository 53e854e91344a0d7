fid = fopen('/nonexistent/file.txt', 'r');
line = fgetl(fid);
