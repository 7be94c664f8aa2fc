echo x > report.txt
