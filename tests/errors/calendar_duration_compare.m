tf = calmonths(1) < caldays(30)
