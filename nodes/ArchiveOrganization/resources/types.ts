import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

export type OperationHandler = (this: IExecuteFunctions, itemIndex: number) => Promise<IDataObject[]>;

export type OperationHandlers = Record<'get' | 'getMany', OperationHandler>;
