% inventory.m: a small order book built with structs, cells, local functions and error handling.
items = {'bolt', 'nut', 'washer', 'gear'};
prices = [0.25, 0.10, 0.05, 12.50];
stock = struct('name', {}, 'price', {}, 'qty', {});
for k = 1:numel(items)
  stock(end + 1) = make_item(items{k}, prices(k), 10 * k);
end

orders = {{'bolt', 4}, {'gear', 2}, {'sprocket', 1}, {'nut', 100}};
total = 0;
log = {};
for k = 1:numel(orders)
  o = orders{k};
  try
    [stock, cost] = fill_order(stock, o{1}, o{2});
    total = total + cost;
    log{end + 1} = sprintf('%-8s x%3d  %8.2f', o{1}, o{2}, cost);
  catch err
    switch err.identifier
      case 'inventory:unknown'
        log{end + 1} = ['skipped: ' err.message];
      case {'inventory:short', 'inventory:empty'}
        log{end + 1} = ['partial: ' err.message];
      otherwise
        rethrow(err);
    end
  end
end

fprintf('%s\n', log{:});
fprintf('total = %.2f\n', total);
remaining = [stock.qty];
disp(remaining)
names = upper(strjoin({stock.name}, ', '));
fprintf('%s\n', names);

function it = make_item(name, price, qty)
  it = struct('name', name, 'price', price, 'qty', qty);
end

function [stock, cost] = fill_order(stock, name, qty)
  idx = find(strcmp({stock.name}, name));
  if isempty(idx)
    error('inventory:unknown', 'no item named "%s"', name);
  end
  if stock(idx).qty < qty
    error('inventory:short', '%s: only %d of %d in stock', name, stock(idx).qty, qty);
  end
  stock(idx).qty = stock(idx).qty - qty;
  cost = qty * stock(idx).price;
end
