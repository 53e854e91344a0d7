t = datetime('2014/06/28', 'InputFormat', 'yyyy-MM-dd')
