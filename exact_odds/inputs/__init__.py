"""Every number, name and file a user gives, turned into a value or one InputError."""
