/**
 * The unit's services the booking form asks for, as the booking widget asks for them: extras the guest takes (ticked
 * or counted) and booking details written in (text, e-mail, phone). Their values go to /quote and /book as form_values.
 */
import { Checkbox, NumberInput, SimpleGrid, TextInput } from '@mantine/core';
import type { FormService } from './booking-queries';

export type ServiceValues = Record<string, string | number | boolean>;

interface Props {
  services: FormService[];
  values: ServiceValues;
  onChange: (values: ServiceValues) => void;
}

export function ServiceFields({ services, values, onChange }: Props) {
  const set = (id: string, value: string | number | boolean) => onChange({ ...values, [id]: value });
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }}>
      {services.map((service) => {
        switch (service.type) {
          case 'checkbox':
            return <Checkbox key={service.id} label={service.name} required={service.required} checked={values[service.id] === true}
              onChange={(event) => set(service.id, event.currentTarget.checked)} />;
          case 'quantity':
          case 'number':
            return <NumberInput key={service.id} label={service.name} required={service.required} min={0} max={service.maxQuantity ?? undefined}
              allowDecimal={false} allowNegative={false} value={typeof values[service.id] === 'number' ? values[service.id] as number : 0}
              onChange={(value) => set(service.id, Number(value) || 0)} />;
          default:
            return <TextInput key={service.id} label={service.name} required={service.required} type={service.type === 'email' ? 'email' : service.type === 'phone' ? 'tel' : 'text'}
              autoComplete="off" value={typeof values[service.id] === 'string' ? values[service.id] as string : ''}
              onChange={(event) => set(service.id, event.currentTarget.value)} />;
        }
      })}
    </SimpleGrid>
  );
}
