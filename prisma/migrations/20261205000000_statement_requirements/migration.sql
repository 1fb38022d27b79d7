-- A statement that commits alone (outside a transaction) and must write nothing unless what it
-- read beforehand still holds: it calls tcms_require(condition) after its writes, which fails the
-- statement with SQLSTATE TC001 unless the condition is true (a null condition fails too).
CREATE FUNCTION tcms_require(condition BOOLEAN) RETURNS BOOLEAN LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  IF condition IS NOT TRUE THEN
    RAISE EXCEPTION 'a requirement of the statement did not hold' USING ERRCODE = 'TC001';
  END IF;
  RETURN true;
END $$;
