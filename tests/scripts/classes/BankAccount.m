classdef BankAccount < handle
  % A handle class (after MATLAB's documentation example of a bank account).
  properties
    Balance = 0
  end
  properties (SetAccess = private)
    Owner string = ""
  end
  methods
    function obj = BankAccount(owner, initial)
      if nargin > 0
        obj.Owner = owner;
        obj.Balance = initial;
      end
    end
    function deposit(obj, amt)
      obj.Balance = obj.Balance + amt;
    end
    function withdraw(obj, amt)
      if amt > obj.Balance
        error('BankAccount:insufficientFunds', 'Insufficient funds');
      end
      obj.Balance = obj.Balance - amt;
    end
  end
end
